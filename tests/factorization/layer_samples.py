"""Band states for the tests of the layer method's canonical forms
(test_layer_canon, test_layer_steps): random states, images under the
coordinate group computed bit by bit, and the invariance check."""
import random

import numpy as np


def transform(state, perm, flips):
    """The image of a state under stack permutation ``perm`` (stack s goes to
    perm[s]) and column swaps ``flips`` (0/1 per stack), bit by bit: an
    implementation independent of the module's tables."""
    out = []
    for mask in state:
        img = 0
        for s, t in enumerate(perm):
            for b in (0, 1):
                if mask >> (2 * s + b) & 1:
                    img |= 1 << (2 * t + (b ^ flips[s]))
        out.append(img)
    return sorted(out)


def random_state(C, L, rng):
    """``2C`` masks of ``L`` stacks each, one column in each (some repeated)."""
    masks = []
    for _ in range(2 * C):
        if masks and rng.random() < 0.2:
            masks.append(rng.choice(masks))
            continue
        stacks = rng.sample(range(C), L)
        masks.append(sum(1 << (2 * s + rng.randrange(2)) for s in stacks))
    return sorted(masks)


def band_state(C, L, rng):
    """The state of ``L`` rows of a random band (rows drawn until one fits)."""
    n = 2 * C
    masks = [0] * n
    rows = 0
    while rows < L:
        perm = rng.sample(range(n), n)       # column j gets digit perm[j]
        if all(not masks[d] >> (2 * (j // 2)) & 3 for j, d in enumerate(perm)):
            for j, d in enumerate(perm):
                masks[d] |= 1 << j
            rows += 1
    return sorted(masks)


def states(C, count, seed):
    rng = random.Random(seed)
    out = [sorted(1 << j for j in range(2 * C))]           # the start: fixed by everything
    for i in range(count):
        L = 1 + i % C
        # band states by rejection: quick up to C = 5, hopeless for C = 6's late rows
        out.append(band_state(C, L, rng) if i % 2 and C <= 5 else random_state(C, L, rng))
    return out


def invariance_failures(canon, C, seed, count=30, images=6):
    """States whose random images get another form or stabiliser order under ``canon``."""
    rng = random.Random(seed)
    failures = []
    base = states(C, count, seed)
    forms, stab = canon(np.array(base), C)
    for state, form, st in zip(base, forms.tolist(), stab.tolist()):
        moved = []
        for _ in range(images):
            perm = rng.sample(range(C), C)
            flips = [rng.randrange(2) for _ in range(C)]
            moved.append(transform(state, perm, flips))
        f2, s2 = canon(np.array(moved), C)
        if any(f != form for f in f2.tolist()) or any(s != st for s in s2.tolist()):
            failures.append(state)
    return failures
