"""The resumable store of counted units: the database
(:mod:`counting.store.database`), its format and checksums
(:mod:`counting.store.format`) and its lock (:mod:`counting.store.lock`)."""
