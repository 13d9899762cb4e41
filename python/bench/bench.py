"""The Python package's speed, measured in one run (docs/python-benchmark.md):

  (a) random playouts through the package's PettingZoo AEC environment (raw and wrapped),
  (b) the same playouts through a plain pure-Python environment (pure_quarto.py, same API),
  (c) the Gymnasium environment against the level `random`,
  (d) the batched environment quads.VectorEnv (actions from sample_actions() or from NumPy),
      and (d') the same through gymnasium.make_vec against the level `random`,
  (e) the Rust core itself: State.perft and `quads perft`,
  (f) quads.Solver(...).solve against `quads solve` on the same positions.

Every figure is the median of --repeat repetitions (the repetitions of the compared
measurements interleaved), and every ratio is taken between medians of this one run.

    target/python/venv/bin/python python/bench/bench.py [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import re
import statistics
import subprocess
import sys
import time

import numpy as np

import quads
from quads import env as qenv

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import pure_quarto  # noqa: E402

# (f): positions from `quads solve-bench --rules R --placed 3,2 --positions 5` (seed 1, its
# default), the ones whose one-thread search took about 0.2-2 s on this machine.
SOLVER_POSITIONS = [
    ("quads", "..../.SLRF../BLQH.BDQF./.... BDQH"),  # 3 placed
    ("quads", ".SDQFSLRF./.BLRH../..../.... BDQH"),  # 3 placed
    ("quads", ".SDQH../.BDQH../BDRH.../.... BLQH"),  # 3 placed
    ("quads", "..../..SDRF./..../SDQF... BLQF"),  # 2 placed (`--placed 2`)
    ("classic", "..../.SLRF../BLQH.BDQF./.... BDQH"),  # 3 placed
    ("classic", "..../..BLRH./.BDRHBLQF./.... SLRF"),  # 3 placed
    ("classic", ".SDQFSLRF./.BLRH../..../.... BDQH"),  # 3 placed
]

# (e): the position and depth of docs/performance.md's perft table.
PERFT_POSITION = "..../..../..../.... BDQF"


def busy_seconds():
    """CPU seconds the whole machine has spent busy since boot (/proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return None
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_seconds():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def median(xs):
    return statistics.median(xs)


def fmt_rate(x):
    if x >= 1e9:
        return f"{x / 1e9:.2f} G"
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k"
    return f"{x:.0f} "


def fmt_time(s):
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.2f} µs"


# ---------------------------------------------------------------------------------------------
# (a), (b): AEC playouts


def aec_playouts(env, games, seed):
    """Plays `games` random games (uniform over the legal action mask) as PettingZoo's own
    examples do: agent_iter, last, step. Returns (half-moves, seconds)."""
    rnd = random.Random(seed)
    flat = np.flatnonzero
    half_moves = 0
    t0 = time.perf_counter()
    for g in range(games):
        env.reset(seed=seed + g)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = flat(obs["action_mask"])
            env.step(int(legal[rnd.randrange(len(legal))]))
            half_moves += 1
    return half_moves, time.perf_counter() - t0


def bench_aec(variants, games, repeat, seed):
    makers = {
        "package, raw_aec_env": qenv.raw_aec_env,
        "pure Python, raw": pure_quarto.raw_aec_env,
        "package, aec_env (checks built in)": qenv.aec_env,
        "pure Python, wrapped": pure_quarto.aec_env,
    }
    out = {}
    for rules in variants:
        envs = {name: make(rules) for name, make in makers.items()}
        for env in envs.values():  # warm-up (imports, caches)
            aec_playouts(env, 20, seed)
        rates = {name: [] for name in envs}
        counts = {}
        for _ in range(repeat):
            for name, env in envs.items():
                hm, t = aec_playouts(env, games, seed)
                rates[name].append(hm / t)
                counts[name] = hm
        # Both environments play the same games (the same seeds and the same legal masks).
        assert len(set(counts.values())) == 1, counts
        out[rules] = {name: median(r) for name, r in rates.items()}
        out[rules]["_half_moves"] = counts["package, raw_aec_env"]
    return out


def bench_breakdown(rules, games, repeat, seed):
    """Where a half-move's time goes: the rules alone (apply the recorded actions), one
    observation with its mask, and the rest (PettingZoo's loop, the dicts, the choice)."""
    rnd = random.Random(seed)
    games_actions = []
    for _ in range(games):
        s = quads.State(rules)
        acts = []
        while not s.is_terminal():
            legal = s.legal_actions()
            a = legal[rnd.randrange(len(legal))]
            s.apply_action(a)
            acts.append(a)
        games_actions.append(acts)
    n = sum(len(a) for a in games_actions)

    def rules_pkg():
        t0 = time.perf_counter()
        for acts in games_actions:
            s = quads.State(rules)
            for a in acts:
                s.apply_action(a)
        return time.perf_counter() - t0

    game = pure_quarto.Game(rules)

    def rules_pure():
        t0 = time.perf_counter()
        for acts in games_actions:
            game.reset()
            for a in acts:
                game.apply(a)
        return time.perf_counter() - t0

    def obs_pkg():
        t = 0.0
        for acts in games_actions:
            s = quads.State(rules)
            for a in acts:
                t0 = time.perf_counter()
                qenv.observe(s), qenv.mask(s)
                t += time.perf_counter() - t0
                s.apply_action(a)
        return t

    def obs_pure():
        t = 0.0
        for acts in games_actions:
            game.reset()
            for a in acts:
                t0 = time.perf_counter()
                game.observation(), game.action_mask()
                t += time.perf_counter() - t0
                game.apply(a)
        return t

    def bare_pkg():
        r = random.Random(seed)
        t0 = time.perf_counter()
        for _ in games_actions:
            s = quads.State(rules)
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[r.randrange(len(legal))])
        return time.perf_counter() - t0

    def bare_pure():
        r = random.Random(seed)
        t0 = time.perf_counter()
        for _ in games_actions:
            game.reset()
            while not game.done:
                legal = game.legal_actions()
                game.apply(legal[r.randrange(len(legal))])
        return time.perf_counter() - t0

    fns = {"rules, package": rules_pkg, "rules, pure": rules_pure,
           "observation + mask, package": obs_pkg, "observation + mask, pure": obs_pure,
           "bare, package": bare_pkg, "bare, pure": bare_pure}
    times = {k: [] for k in fns}
    for _ in range(repeat):
        for k, f in fns.items():
            times[k].append(f() / n)
    return {k: median(v) for k, v in times.items()}


def bench_wrappers(rules, games, repeat, seed):
    """The raw AEC environment under each of the three PettingZoo wrappers whose checks
    aec_env builds in, alone and all three (µs per half-move)."""
    from pettingzoo.utils import wrappers as w

    def make(chain):
        def f():
            env = qenv.raw_aec_env(rules)
            for wrapper in chain:
                env = wrapper(env, illegal_reward=-1) if wrapper is w.TerminateIllegalWrapper else wrapper(env)
            return env
        return f

    chains = {
        "none (raw_aec_env)": [],
        "OrderEnforcingWrapper": [w.OrderEnforcingWrapper],
        "AssertOutOfBoundsWrapper": [w.AssertOutOfBoundsWrapper],
        "TerminateIllegalWrapper": [w.TerminateIllegalWrapper],
        "all three (as PettingZoo's classic games wrap theirs)": [w.TerminateIllegalWrapper, w.AssertOutOfBoundsWrapper, w.OrderEnforcingWrapper],
    }
    envs = {k: make(c)() for k, c in chains.items()}
    times = {k: [] for k in envs}
    for _ in range(repeat):
        for k, env in envs.items():
            hm, t = aec_playouts(env, games, seed)
            times[k].append(t / hm)
    return {k: median(v) for k, v in times.items()}


# ---------------------------------------------------------------------------------------------
# (c): Gymnasium against `random`


def gym_playouts(env, games, seed):
    rnd = random.Random(seed)
    flat = np.flatnonzero
    agent_steps = half_moves = 0
    t0 = time.perf_counter()
    for g in range(games):
        _obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            legal = flat(info["action_mask"])
            _obs, _r, term, trunc, info = env.step(int(legal[rnd.randrange(len(legal))]))
            done = term or trunc
            agent_steps += 1
        half_moves += 2 * env.unwrapped.state.placed  # every game: 2 half-moves per placement
    return agent_steps, half_moves, time.perf_counter() - t0


def bench_gym(rules, games, repeat, seed):
    env = qenv.gym_env(rules, opponent="random", seat=0)
    gym_playouts(env, 20, seed)
    agent, half = [], []
    for _ in range(repeat):
        a, h, t = gym_playouts(env, games, seed)
        agent.append(a / t)
        half.append(h / t)
    return median(agent), median(half)


# ---------------------------------------------------------------------------------------------
# (d): the batched environment


def numpy_actions(masks, rng):
    """A uniform legal action per row of a (N, 32) bool mask, in NumPy: the legal action with
    the largest random key (float32 keys: two legal keys tie with a probability of about 1e-5
    per row, a bias toward the lower action that small)."""
    keys = rng.random(masks.shape, dtype=np.float32)
    keys *= masks
    return keys.argmax(axis=1)


def bench_vector(rules, sizes, threads_list, half_moves, repeat, seed):
    rows = []
    for n in sizes:
        for threads in threads_list:
            env = quads.VectorEnv(rules=rules, num_envs=n, seed=seed, auto_reset=True, threads=threads)
            steps = max(1, half_moves // n)
            rng = np.random.default_rng(seed)
            env.reset(seed=seed)
            for _ in range(5):  # warm-up, and a check of the NumPy choice
                a = numpy_actions(env.action_masks, rng)
                assert env.action_masks[np.arange(n), a].all()
                env.step(a)
            for mode in ("sample_actions", "numpy"):
                rates, step_share = [], []
                for _ in range(repeat):
                    env.reset(seed=seed)
                    in_step = 0.0
                    t0 = time.perf_counter()
                    for _ in range(steps):
                        a = env.sample_actions() if mode == "sample_actions" else numpy_actions(env.action_masks, rng)
                        t1 = time.perf_counter()
                        env.step(a)
                        in_step += time.perf_counter() - t1
                    took = time.perf_counter() - t0
                    rates.append(n * steps / took)
                    step_share.append(in_step / took)
                rows.append((n, threads, mode, median(rates), median(step_share)))
    return rows


def bench_gym_vector(rules, sizes, threads_list, half_moves, repeat, seed):
    """`gymnasium.make_vec` of the Gymnasium id against `random`: agent steps/s (the level's
    replies are played inside the step and not counted)."""
    import gymnasium as gym

    env_id = "quads/Quarto-v0" if rules.startswith("classic") else "quads/Quads-v0"
    rows = []
    for n in sizes:
        for threads in threads_list:
            env = gym.make_vec(env_id, num_envs=n, rules=rules, threads=threads, copy=False)
            steps = max(1, half_moves // n)
            rng = np.random.default_rng(seed)
            rates = []
            for _ in range(repeat):
                _, info = env.reset(seed=seed)
                t0 = time.perf_counter()
                for _ in range(steps):
                    masks = info["action_mask"].astype(bool)
                    masks[~masks.any(axis=1), 0] = True  # an ended game's action is ignored
                    _, _, _, _, info = env.step(numpy_actions(masks, rng))
                rates.append(n * steps / (time.perf_counter() - t0))
            rows.append((n, threads, median(rates)))
    return rows


# ---------------------------------------------------------------------------------------------
# (e): perft


def bench_perft(cli, rules, position, depth, repeat):
    state = quads.State(rules, position)
    py_t, cli_wall = [], []
    count = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        count = state.perft(depth)
        py_t.append(time.perf_counter() - t0)
        if cli:
            t0 = time.perf_counter()
            out = subprocess.run(
                [cli, "perft", "--rules", rules, "--position", position, str(depth)],
                capture_output=True, text=True, check=True,
            ).stdout
            cli_wall.append(time.perf_counter() - t0)
            last = out.split("\n")[depth - 1].split()
            assert int(last[1]) == count, (out, count)
    return count, median(py_t), (median(cli_wall) if cli else None)


# ---------------------------------------------------------------------------------------------
# (f): the solver


SOLVE_LINE = re.compile(r"nodes: (\d+) in ([0-9.]+) s")


def bench_solver(cli, positions, table_mib, threads, repeat):
    rows = []
    for rules, position in positions:
        state = quads.State(rules, position)
        py_t, cli_t, cli_wall = [], [], []
        for _ in range(repeat):
            t0 = time.perf_counter()
            solver = quads.Solver(rules, table_mib=table_mib, threads=threads)
            sol = solver.solve(state)
            py_t.append(time.perf_counter() - t0)
            py_nodes = solver.nodes
            del solver
            t0 = time.perf_counter()
            out = subprocess.run(
                [cli, "solve", "--rules", rules, "--hash", str(table_mib), "--threads", str(threads), position],
                capture_output=True, text=True, check=True,
            ).stdout
            cli_wall.append(time.perf_counter() - t0)
            m = SOLVE_LINE.search(out)
            cli_t.append(float(m.group(2)))
            cli_value = re.search(r"value: (.*)", out).group(1).strip()
            assert cli_value == sol.describe(), (out, sol)
            if threads == 1:
                assert int(m.group(1)) == py_nodes, (out, py_nodes)
        rows.append((rules, position, sol.describe(), py_nodes, median(py_t), median(cli_t), median(cli_wall)))
    return rows


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="games per AEC measurement (gym: half as many)")
    ap.add_argument("--repeat", type=int, default=5, help="repetitions; every figure is their median")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--vector-half-moves", type=int, default=2_000_000,
                    help="half-moves per batched measurement (rounded down to whole steps)")
    ap.add_argument("--vector-sizes", default="256,4096,16384")
    ap.add_argument("--vector-threads", default="1,2")
    ap.add_argument("--perft-depth", type=int, default=5)
    ap.add_argument("--perft-position", default=PERFT_POSITION)
    ap.add_argument("--solver-table", type=int, default=256, help="MiB, both sides")
    ap.add_argument("--solver-threads", type=int, default=1)
    ap.add_argument("--cli", default=os.environ.get("QUADS_CLI", str(ROOT / "target" / "release" / "quads")))
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: aec,breakdown,gym,vector,perft,solver")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    cli = args.cli if os.path.exists(args.cli) else None
    if cli is None:
        print(f"note: {args.cli} is missing: the CLI's columns are skipped", file=sys.stderr)

    try:
        from importlib.metadata import version

        qv = version("quads")
    except Exception:  # noqa: BLE001 (a build not installed by pip)
        qv = "?"
    print(f"# python {sys.version.split()[0]}, numpy {np.__version__}, quads {qv}, "
          f"{os.cpu_count()} CPUs; --games {args.games} --repeat {args.repeat}; medians of {args.repeat}")
    loads = os.getloadavg()
    print(f"# load average at the start: {loads[0]:.2f}")
    busy0, own0, wall0 = busy_seconds(), own_seconds(), time.perf_counter()

    if "aec" not in skip:
        res = bench_aec(["quads", "classic"], args.games, args.repeat, args.seed)
        print(f"\n## (a), (b) AEC random playouts, {args.games} games per repetition (half-moves/s)\n")
        print("| environment | quads | classic |")
        print("|---|---|---|")
        for name in ["package, raw_aec_env", "pure Python, raw", "package, aec_env (checks built in)", "pure Python, wrapped"]:
            print(f"| {name} | {fmt_rate(res['quads'][name])} | {fmt_rate(res['classic'][name])} |")
        for a, b, label in [("package, raw_aec_env", "pure Python, raw", "raw"),
                            ("package, aec_env (checks built in)", "pure Python, wrapped", "wrapped")]:
            rq = res["quads"][a] / res["quads"][b]
            rc = res["classic"][a] / res["classic"][b]
            print(f"| **package / pure Python, {label}** (goal ≥ 5×) | **{rq:.2f}×** | **{rc:.2f}×** |")
        print(f"\n(half-moves per repetition: quads {res['quads']['_half_moves']}, classic {res['classic']['_half_moves']})")

    if "breakdown" not in skip:
        n = max(100, args.games // 4)
        br = bench_breakdown("quads", n, args.repeat, args.seed)
        us = {k: v * 1e6 for k, v in br.items()}
        print(f"\n## Where a half-move's time goes (quads, {n} games, µs per half-move)\n")
        print("| part | package | pure Python | pure / package |")
        print("|---|---|---|---|")
        for label, key in [("the rules: apply the recorded action", "rules"),
                           ("observation + action mask, as observe() builds them", "observation + mask"),
                           ("a bare playout on the game object: legal_actions(), a choice, apply", "bare")]:
            a, b = us[f"{key}, package"], us[f"{key}, pure"]
            print(f"| {label} | {a:.2f} | {b:.2f} | {b / a:.2f}× |")
        if "aec" not in skip:
            a, b = 1e6 / res["quads"]["package, raw_aec_env"], 1e6 / res["quads"]["pure Python, raw"]
            print(f"| a whole raw AEC half-move, from (a) | {a:.2f} | {b:.2f} | {b / a:.2f}× |")
            ra = a - us["rules, package"] - us["observation + mask, package"]
            rb = b - us["rules, pure"] - us["observation + mask, pure"]
            print(f"| the rest of it, by difference (PettingZoo's agent_iter and last, the dicts, the choice) "
                  f"| {ra:.2f} | {rb:.2f} | |")
            print(f"\nCeiling of the raw AEC ratio were the package's rules and observation free: "
                  f"{b:.2f} / {ra:.2f} = {b / ra:.2f}×")
        wr = bench_wrappers("quads", n, args.repeat, args.seed)
        print(f"\nThe package's AEC environment under PettingZoo's wrappers (quads, {n} games, µs per half-move):\n")
        print("| wrappers | µs per half-move |")
        print("|---|---|")
        for k, v in wr.items():
            print(f"| {k} | {v * 1e6:.2f} |")

    if "gym" not in skip:
        g = max(50, args.games // 2)
        agent, half = bench_gym("quads", g, args.repeat, args.seed)
        print(f"\n## (c) Gymnasium, gym_env('quads', opponent='random', seat=0), {g} games\n")
        print(f"agent steps/s {fmt_rate(agent)}; half-moves/s (both players) {fmt_rate(half)}")

    if "vector" not in skip:
        if not hasattr(quads, "VectorEnv"):
            print("\n## (d) quads.VectorEnv: not in this build, skipped")
        else:
            sizes = [int(x) for x in args.vector_sizes.split(",")]
            threads = [int(x) for x in args.vector_threads.split(",")]
            rows = bench_vector("quads", sizes, threads, args.vector_half_moves, args.repeat, args.seed)
            print(f"\n## (d) quads.VectorEnv('quads', auto_reset=True), about {args.vector_half_moves} half-moves "
                  "per repetition (half-moves/s; goal ≥ 10 M)\n")
            print("| num_envs | threads | actions from | half-moves/s | per step of N half-moves | in step() |")
            print("|---|---|---|---|---|---|")
            for n, t, mode, rate, share in rows:
                print(f"| {n} | {t} | {'env.sample_actions()' if mode == 'sample_actions' else 'NumPy, from action_masks'} "
                      f"| {fmt_rate(rate)} | {fmt_time(n / rate)} | {share:.0%} |")
            rows = bench_gym_vector("quads", sizes, threads, args.vector_half_moves, args.repeat, args.seed)
            print("\n## (d') gymnasium.make_vec('quads/Quads-v0', num_envs=N, threads=T) against random, "
                  "NumPy actions from info['action_mask'] (agent steps/s; the level's replies uncounted)\n")
            print("| num_envs | threads | agent steps/s | per step of N |")
            print("|---|---|---|---|")
            for n, t, rate in rows:
                print(f"| {n} | {t} | {fmt_rate(rate)} | {fmt_time(n / rate)} |")

    if "perft" not in skip:
        count, py_t, cli_wall = bench_perft(cli, "quads", args.perft_position, args.perft_depth, args.repeat)
        print(f"\n## (e) perft, quads, `{args.perft_position}`, depth {args.perft_depth}: {count} whole moves\n")
        print("| | time | leaf whole moves/s |")
        print("|---|---|---|")
        print(f"| State.perft({args.perft_depth}) | {fmt_time(py_t)} | {fmt_rate(count / py_t)} |")
        if cli_wall is not None:
            print(f"| `quads perft` (process wall time, depths 1 to {args.perft_depth}) | {fmt_time(cli_wall)} "
                  f"| {fmt_rate(count / cli_wall)} |")

    if "solver" not in skip and cli:
        rows = bench_solver(cli, SOLVER_POSITIONS, args.solver_table, args.solver_threads, args.repeat)
        print(f"\n## (f) the solver, {args.solver_table} MiB table, {args.solver_threads} thread(s), a fresh table "
              "per call on both sides\n")
        print("| rules | position | value | nodes | Solver(...).solve | `quads solve`, its own time | Python / CLI | "
              "CLI process wall |")
        print("|---|---|---|---|---|---|---|---|")
        for rules, pos, value, nodes, py_t, cli_t, wall in rows:
            print(f"| {rules} | `{pos}` | {value} | {nodes} | {fmt_time(py_t)} | {fmt_time(cli_t)} | "
                  f"{py_t / cli_t:.3f} | {fmt_time(wall)} |")
        tot_py = sum(r[4] for r in rows)
        tot_cli = sum(r[5] for r in rows)
        tot_wall = sum(r[6] for r in rows)
        print(f"| **all** | | | | {fmt_time(tot_py)} | {fmt_time(tot_cli)} | **{tot_py / tot_cli:.3f}** "
              f"(goal ≤ 1.10) | {fmt_time(tot_wall)} |")
    wall = time.perf_counter() - wall0
    print(f"\n# load average at the end: {os.getloadavg()[0]:.2f}")
    if busy0 is not None:
        others = (busy_seconds() - busy0) - (own_seconds() - own0)
        print(f"# CPU time of other processes during the run: {max(others, 0):.1f} s in {wall:.1f} s of wall time "
              f"on {os.cpu_count()} CPUs (this benchmark's own, its CLI runs included: {own_seconds() - own0:.1f} s)")


if __name__ == "__main__":
    main()
