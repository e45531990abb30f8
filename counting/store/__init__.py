"""The resumable store of counted units: the database
(:mod:`counting.store.database`), its format and checksums
(:mod:`counting.store.format`), its lock (:mod:`counting.store.lock`), units
exports (:mod:`counting.store.exchange`) and a symmetry store's identity unit
tied to its grid store (:mod:`counting.store.identity`)."""
