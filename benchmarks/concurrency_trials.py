#!/usr/bin/env python3
"""Concurrency and kills (issue 18, acceptance 4), measured from outside like a user would:

1. two `imglab bless` into one golden store at once, with disjoint filters, N trials: every
   golden of both must be in the index afterwards;
2. two `imglab run` with different resizers into one report folder at once, N trials: the pair
   pages must all be one run's (compared with each run's report made alone);
3. `imglab run --report DIR` killed with SIGKILL at K points spread over the run (by time, from
   outside): the folder must be the previous report, byte for byte, or the new one, whole.

Usage: benchmarks/concurrency_trials.py [--imglab .build/release/imglab] [--trials 20] [--kills 10]
"""
import argparse, json, os, shutil, signal, subprocess, sys, tempfile, time

def snapshot(folder):
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(root, f)
            out[os.path.relpath(p, folder)] = open(p, 'rb').read()
    return out

def pages(snap):
    return {k: v for k, v in snap.items() if k.startswith('pairs/')}

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--imglab', default='.build/release/imglab')
    ap.add_argument('--trials', type=int, default=20)
    ap.add_argument('--kills', type=int, default=10)
    a = ap.parse_args()
    imglab = os.path.abspath(a.imglab)
    d = tempfile.mkdtemp(prefix='imglab-trials-')
    try:
        # 1. Two blessings of one store.
        filters = ['png-*', 'tiff-*']
        alone = {}
        for f in filters:
            store = os.path.join(d, 'alone-' + f[:-2])
            subprocess.run([imglab, 'bless', '--goldens', store, '--filter', f, '--threads', '1'], check=True, capture_output=True)
            alone[f] = set(json.load(open(os.path.join(store, 'index.json')))['goldens'])
        lost_trials = 0
        for t in range(a.trials):
            store = os.path.join(d, f'store-{t}')
            procs = [subprocess.Popen([imglab, 'bless', '--goldens', store, '--filter', f, '--threads', '1'],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for f in filters]
            codes = [p.wait() for p in procs]
            pairs = set(json.load(open(os.path.join(store, 'index.json')))['goldens'])
            if codes != [0, 0] or pairs != alone[filters[0]] | alone[filters[1]]:
                lost_trials += 1
        print(f'bless: {a.trials} trials of two blessings at once ({len(alone[filters[0]])} + {len(alone[filters[1]])} pairs): '
              f'{lost_trials} lost goldens or failed')

        # 2. Two runs into one report folder.
        flt = 'png-rgba8-*'
        ref = {}
        for r in ['builtin', 'swap-rb']:
            folder = os.path.join(d, 'ref-' + r)
            subprocess.run([imglab, 'run', '--resizer', r, '--filter', flt, '--threads', '1', '--report', folder], capture_output=True)
            ref[r] = pages(snapshot(folder))
        mixed = 0
        for t in range(a.trials):
            folder = os.path.join(d, f'shared-{t}')
            procs = [subprocess.Popen([imglab, 'run', '--resizer', r, '--filter', flt, '--threads', '1', '--report', folder],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for r in ['builtin', 'swap-rb']]
            [p.wait() for p in procs]
            got = pages(snapshot(folder))
            if got != ref['builtin'] and got != ref['swap-rb']:
                mixed += 1
        print(f'run: {a.trials} trials of two runs into one folder (builtin {len(ref["builtin"])} pages, swap-rb {len(ref["swap-rb"])}): {mixed} mixed')

        # 3. SIGKILL at points spread over a run that replaces a previous report.
        folder = os.path.join(d, 'killed')
        subprocess.run([imglab, 'run', '--resizer', 'builtin', '--threads', '1', '--report', folder], capture_output=True)
        before = snapshot(folder)
        started = time.time()
        subprocess.run([imglab, 'run', '--resizer', 'swap-rb', '--threads', '1', '--report', os.path.join(d, 'full-new')], capture_output=True)
        duration = time.time() - started
        new_pages = pages(snapshot(os.path.join(d, 'full-new')))
        broken, outcomes = 0, []
        for k in range(a.kills):
            # Restore the previous report for each point.
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            for rel, data in before.items():
                os.makedirs(os.path.dirname(os.path.join(folder, rel)), exist_ok=True)
                open(os.path.join(folder, rel), 'wb').write(data)
            delay = duration * (k + 1) / (a.kills + 1)
            p = subprocess.Popen([imglab, 'run', '--resizer', 'swap-rb', '--threads', '1', '--report', folder],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(delay)
            p.send_signal(signal.SIGKILL)
            p.wait()
            after = snapshot(folder)
            if after == before:
                outcomes.append('old')
            elif pages(after) == new_pages:
                outcomes.append('new')
            else:
                outcomes.append('MIXED')
                broken += 1
        leftovers = [e for e in os.listdir(d) if e.startswith('.killed.imglab-')]
        subprocess.run([imglab, 'run', '--resizer', 'builtin', '--threads', '1', '--report', folder], capture_output=True)
        after_next = [e for e in os.listdir(d) if e.startswith('.killed.imglab-')]
        print(f'kill: SIGKILL at {a.kills} points over a {duration:.1f} s run: {", ".join(outcomes)}; {broken} broken reports; '
              f'{len(leftovers)} staging folders left by the kills, {len(after_next)} after the next run')
        return 1 if lost_trials or mixed or broken or after_next else 0
    finally:
        shutil.rmtree(d, ignore_errors=True)

if __name__ == '__main__':
    sys.exit(main())
