"""Train the hand model of ``bot.ai.handmodel`` from self-play.

    python -m bot.benchmarks.handmodel record SEED START STOP GAMES.pkl   # four mittel seats
    python -m bot.benchmarks.handmodel train OUT.npz GAMES.pkl [...]      # fit, report held out

``record`` plays deals ``START..STOP`` of ``SEED`` (as the arena deals them) with four mittel
seats and keeps each game's actions. ``train`` replays them, takes every card decision of a
normal game as one example (what the deciding seat saw, where the unseen cards really were),
fits the network with Adam on nine tenths of the games and reports the cross-entropy per
unseen card on the rest, against the uniform draw the sampler makes without the model.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np

from bot.ai import get_strategy
from bot.ai.handmodel import FEATURES, KINDS, features
from bot.ai.knowledge import public_contract, voids_of
from bot.arena import play_game
from bot.rules.contracts import Contract
from bot.rules.game import Deal, Game, Phase, Play
from bot.rules.ruleset import DDV
from bot.rules.view import player_view

HIDDEN = 64
DECAY = 1e-4


def record(seed: int, start: int, stop: int, out: Path) -> None:
    seats = [get_strategy("mittel") for _ in range(4)]
    games = []
    for i in range(start, stop):
        deal = Deal.shuffled(seed * 1_000_003 + i, dealer=i % 4, ruleset=DDV)
        game = play_game(deal, seats, f"gen/{seed}/{i}")
        games.append((seed * 1_000_003 + i, i % 4, list(game.actions)))
    out.write_bytes(pickle.dumps(games))


def examples(
    games: list[tuple[int, int, list[object]]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features, targets (share of each kind's unseen copies per other seat), the mask of
    possible holders and log hand sizes, one row per card decision in a normal game.
    """
    xs, ts, ms, ns = [], [], [], []
    for deal_seed, dealer, actions in games:
        game = Game(Deal.shuffled(deal_seed, dealer=dealer, ruleset=DDV))
        for action in actions:
            seat = game.to_act()
            if game.phase is Phase.PLAY and isinstance(action, Play) and seat is not None:
                view = player_view(game, seat)
                if public_contract(view) is Contract.NORMAL:
                    x = features(view)
                    unseen = x[0, KINDS : 2 * KINDS]
                    voids = voids_of(view)
                    t = np.zeros((3, KINDS), dtype=np.float32)
                    m = np.zeros((3, KINDS), dtype=bool)
                    n = np.zeros(3, dtype=np.float32)
                    for r in range(1, 4):
                        s = (seat + r) % 4
                        n[r - 1] = np.log(max(view.cards_in_hand[s], 1))
                        for c in game.hands[s]:
                            t[r - 1, int(c)] += 1
                        for k in range(KINDS):
                            void = (voids[s] >> view.order.klass[k]) & 1
                            m[r - 1, k] = view.cards_in_hand[s] > 0 and not void
                    t = np.where(unseen > 0, t / np.maximum(unseen, 1), 0)
                    xs.append(x)
                    ts.append(t)
                    ms.append(m & (unseen > 0))
                    ns.append(n)
            game.apply(action)  # type: ignore[arg-type]
    return np.array(xs), np.array(ts), np.array(ms), np.array(ns)


def cross_entropy(
    z: np.ndarray, t: np.ndarray, m: np.ndarray, n: np.ndarray
) -> tuple[float, np.ndarray]:
    """Cross-entropy per unseen card and its gradient by ``z`` (B, 3, KINDS)."""
    a = np.where(m, z + n[:, :, None], -1e9)
    a = a - a.max(axis=1, keepdims=True)
    e = np.exp(a) * m
    p = e / np.maximum(e.sum(axis=1, keepdims=True), 1e-30)
    cards = t.sum(axis=1) > 0  # kinds with an unseen copy
    count = max(1, int(cards.sum()))
    loss = -(t * np.log(np.maximum(p, 1e-30))).sum() / count
    grad = (p - t) * cards[:, None, :] / count
    return float(loss), grad


def train(out: Path, files: list[Path], epochs: int = 12, seed: int = 0) -> None:
    games = [g for f in files for g in pickle.loads(f.read_bytes())]
    cut = len(games) * 9 // 10
    x, t, m, n = examples(games[:cut])
    vx, vt, vm, vn = examples(games[cut:])
    print(f"{len(x)} examples from {cut} games, {len(vx)} held out from {len(games) - cut}")
    scale = (1 / np.maximum(np.abs(x).max(axis=(0, 1)), 1)).astype(np.float32)
    gen = np.random.default_rng(seed)
    params = [
        gen.normal(0, np.sqrt(2 / FEATURES), (FEATURES, HIDDEN)).astype(np.float32),
        np.zeros(HIDDEN, dtype=np.float32),
        np.zeros((HIDDEN, KINDS), dtype=np.float32),
        np.zeros(KINDS, dtype=np.float32),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    step = 0

    def forward(xb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.maximum(0, (xb * scale) @ params[0] + params[1])
        return h, h @ params[2] + params[3]

    base, _ = cross_entropy(np.zeros((len(vx), 3, KINDS)), vt, vm, vn)
    print(f"held out, uniform: {base:.4f}")
    best = base
    for epoch in range(epochs):
        order = gen.permutation(len(x))
        lr = 2e-3 if epoch < epochs * 2 // 3 else 5e-4
        for i in range(0, len(x), 256):
            b = order[i : i + 256]
            xb = (x[b] * scale).reshape(-1, FEATURES)
            h, z = forward(x[b])
            _, g = cross_entropy(z, t[b], m[b], n[b])
            g = g.reshape(-1, KINDS)
            h = h.reshape(-1, HIDDEN)
            dh = (g @ params[2].T) * (h > 0)
            grads = [xb.T @ dh, dh.sum(axis=0), h.T @ g, g.sum(axis=0)]
            grads[0] += DECAY * params[0]
            grads[2] += DECAY * params[2]
            step += 1
            for j, (p, gr) in enumerate(zip(params, grads, strict=True)):
                first[j] = 0.9 * first[j] + 0.1 * gr
                second[j] = 0.999 * second[j] + 0.001 * gr * gr
                mh = first[j] / (1 - 0.9**step)
                vh = second[j] / (1 - 0.999**step)
                p -= lr * mh / (np.sqrt(vh) + 1e-8)
        _, vz = forward(vx)
        held, _ = cross_entropy(vz, vt, vm, vn)
        print(f"epoch {epoch + 1}: held out {held:.4f} (uniform {base:.4f})", flush=True)
        if held < best:
            best = held
            np.savez(out, scale=scale, w1=params[0], b1=params[1], w2=params[2], b2=params[3])


def main(argv: list[str]) -> int:
    if len(argv) == 5 and argv[0] == "record":
        record(int(argv[1]), int(argv[2]), int(argv[3]), Path(argv[4]))
        return 0
    if len(argv) >= 3 and argv[0] == "train":
        train(Path(argv[1]), [Path(a) for a in argv[2:]])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
