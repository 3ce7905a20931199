#!/usr/bin/env python3
"""Where a signal generator's missed steps went: reads a villas.human file the generator's samples were written to
(one line per sample, its sequence in parentheses) and prints the gaps in the sequence, per 100 ms and by size.

    benchmarks/pacing/missed_steps.py logs/ib_generated-*.log
"""
import collections
import re
import sys

LINE = re.compile(r'(\d+)\.(\d+)(?:[+-][^(]*)?\((\d+)\)')


def main(path):
    times, sequences = [], []
    with open(path) as lines:
        for line in lines:
            match = None if line.startswith('#') else LINE.match(line)
            if match:
                times.append(int(match.group(1)) * 10**9 + int(match.group(2)))
                sequences.append(int(match.group(3)))
    if len(sequences) < 2:
        sys.exit(f'{path}: fewer than two samples')
    start = times[0]
    gaps = [(times[i] - start, sequences[i] - sequences[i - 1] - 1) for i in range(1, len(sequences))
            if sequences[i] - sequences[i - 1] != 1]
    span = times[-1] - start
    print(f'{len(sequences)} samples over {span / 1e6:.1f} ms, missed {sum(g for _, g in gaps)} steps in '
          f'{len(gaps)} gaps')
    per_100ms = collections.Counter()
    by_size = collections.Counter()
    for at, missed in gaps:
        per_100ms[at // 100_000_000] += missed
        by_size['1' if missed == 1 else '2-9' if missed < 10 else '10-99' if missed < 100 else
                '100-999' if missed < 1000 else '1000+'] += missed
    print('missed per 100 ms:', [per_100ms.get(i, 0) for i in range(span // 100_000_000 + 1)])
    print('missed by gap size:', dict(by_size))
    print('largest gaps (ms from start, steps):',
          [(round(at / 1e6, 1), missed) for at, missed in sorted(gaps, key=lambda g: -g[1])[:8]])


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
