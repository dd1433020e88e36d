#!/usr/bin/env python3
"""Print the option entries of the man page from a c2cbench binary's --help (scripts/man-page.sh
puts them in place when `make` builds build/c2cbench.1; tests/test_manpage.c checks the page it
made against --help, so an option line this cannot read fails the suite).
usage: scripts/man-options.py ./c2cbench SECTION   (SECTION: harness, bench:NAME or cmd:NAME)"""
import re, subprocess, sys

def esc(t):
    t = t.replace('\\', '\\e').replace('-', '\\-')
    return ('\\&' + t) if t[:1] in ".'" else t

def entries(text, start=None):
    out, on = [], start is None
    for line in text.splitlines():
        if start is not None and line.strip() == start:
            on = True
            continue
        if on and start is not None and line and not line.startswith(' '):
            break
        m = re.match(r'^  (--[a-z0-9-]+)(?: (\S+))?\s{2,}(.*)$', line) if on else None
        if not m:
            m2 = re.match(r'^  (--[a-z0-9-]+) (\S+) (.*)$', line) if on else None
            m = m2
        if m:
            opt, meta, desc = m.group(1), m.group(2), m.group(3)
            head = '.BI "%s " "%s"' % (esc(opt), esc(meta)) if meta else '.B %s' % esc(opt)
            out.append(['.TP\n%s\n' % head, desc])
        elif on and out and line.startswith('      '):  # the option's text, wrapped
            out[-1][1] += ' ' + line.strip()
    return '\n'.join(h + esc(d) for h, d in out)

bin_, sec = sys.argv[1], sys.argv[2]
if sec == 'harness':
    h = subprocess.run([bin_, 'run', 'pending-bit', '--help'], capture_output=True, text=True).stdout
    print(entries(h, 'harness options:'))
elif sec.startswith('bench:'):
    b = sec[6:]
    h = subprocess.run([bin_, 'run', b, '--help'], capture_output=True, text=True).stdout
    print(entries(h, b + ' options:'))
else:
    c = sec[4:].split()
    h = subprocess.run([bin_] + c + ['--help'], capture_output=True, text=True).stdout
    print(entries(h))
