# c2cbench report: every string below is an escaped literal; the numbers are in data/

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b1-v2-g1-1.png'
set datafile missing '?'
set title 'pending-bit, Layouts: policy=rmw, duration_requested_s=~1 (measured): ns per operation'
set xlabel 'layout'
set ylabel 'ns per operation'
set grid ytics
set key below
set yrange [0:33.588]
set xrange [-0.6:1.6]
set xtics ('shared' 0, 'aligned' 1)
set style fill solid 0.6 border -1
set boxwidth 0.4000
plot 'data/b1-v2-g1-1.dat' using ($1-0.2000):2:3:4:(0.4000) with boxerrorbars lc 1 title 'vm: writer', \
  'data/b1-v2-g1-1.dat' using ($1+0.2000):5:6:7:(0.4000) with boxerrorbars lc 2 title 'vm: reader'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b1-v2-g2-1.png'
set datafile missing '?'
set title 'pending-bit, Layouts: policy=rmw, duration_requested_s=~1.5 (measured): ns per operation'
set xlabel 'layout'
set ylabel 'ns per operation'
set grid ytics
set key below
set yrange [0:41.4333]
set xrange [-0.6:2.6]
set xtics ('shared' 0, 'aligned' 1, 'padded' 2)
set style fill solid 0.6 border -1
set boxwidth 0.4000
plot 'data/b1-v2-g2-1.dat' using ($1-0.2000):2:3:4:(0.4000) with boxerrorbars lc 1 title 'vm: writer', \
  'data/b1-v2-g2-1.dat' using ($1+0.2000):5:6:7:(0.4000) with boxerrorbars lc 2 title 'vm: reader'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b1-v2-g3-1.png'
set datafile missing '?'
set title 'pending-bit, Layouts: policy=test-then-set, duration_requested_s=~1.5 (measured): ns per'."\n".'operation'
set xlabel 'layout'
set ylabel 'ns per operation'
set grid ytics
set key below
set yrange [0:3.82375]
set xrange [-0.6:2.6]
set xtics ('shared' 0, 'aligned' 1, 'padded' 2)
set style fill solid 0.6 border -1
set boxwidth 0.4000
plot 'data/b1-v2-g3-1.dat' using ($1-0.2000):2:3:4:(0.4000) with boxerrorbars lc 1 title 'vm: writer', \
  'data/b1-v2-g3-1.dat' using ($1+0.2000):5:6:7:(0.4000) with boxerrorbars lc 2 title 'vm: reader'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b2-v1-g1-1.png'
set datafile missing '?'
set title 'shepherd, vmstat_shepherd checks: vmstat_update runs per interval'
set xlabel 'check'
set ylabel 'runs per interval'
set grid ytics
set key below
set yrange [0:1.666]
set xrange [-0.6:2.6]
set xtics ('pending' 0, 'busy' 1, 'atomic' 2)
set style fill solid 0.6 border -1
set boxwidth 0.8000
plot 'data/b2-v1-g1-1.dat' using ($1+0.0000):2:3:4:(0.8000) with boxerrorbars lc 1 title 'vm'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b2-v1-g1-2.png'
set datafile missing '?'
set title 'shepherd, vmstat_shepherd checks: gaps shorter than the legitimate minimum'
set xlabel 'check'
set ylabel 'gaps'
set grid ytics
set key below
set yrange [0:41.4]
set xrange [-0.6:2.6]
set xtics ('pending' 0, 'busy' 1, 'atomic' 2)
set style fill solid 0.6 border -1
set boxwidth 0.8000
plot 'data/b2-v1-g1-2.dat' using ($1+0.0000):2:3:4:(0.8000) with boxerrorbars lc 1 title 'vm'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b2-v1-g1-3.png'
set datafile missing '?'
set title 'shepherd, vmstat_shepherd checks: queued while running'
set xlabel 'check'
set ylabel 'queueings'
set grid ytics
set key below
set yrange [0:41.4]
set xrange [-0.6:2.6]
set xtics ('pending' 0, 'busy' 1, 'atomic' 2)
set style fill solid 0.6 border -1
set boxwidth 0.8000
plot 'data/b2-v1-g1-3.dat' using ($1+0.0000):2:3:4:(0.8000) with boxerrorbars lc 1 title 'vm'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b2-v1-g1-4.png'
set datafile missing '?'
set title 'shepherd, vmstat_shepherd checks: zone lock acquisitions'
set xlabel 'check'
set ylabel 'acquisitions'
set grid ytics
set key below
set yrange [0:709.55]
set xrange [-0.6:2.6]
set xtics ('pending' 0, 'busy' 1, 'atomic' 2)
set style fill solid 0.6 border -1
set boxwidth 0.8000
plot 'data/b2-v1-g1-4.dat' using ($1+0.0000):2:3:4:(0.8000) with boxerrorbars lc 1 title 'vm'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b3-v1-g1-1.png'
set datafile missing '?'
set title 'refill, Refill worker: allocations that succeeded'
set xlabel 'worker'
set ylabel 'allocations'
set grid ytics
set key below
set logscale y
set yrange [512:262144]
set format y '%.3s%c'
set xrange [-0.6:1.6]
set xtics ('bound' 0, 'unbound' 1)
plot 'data/b3-v1-g1-1.dat' using ($1+0.0000):2:3:4 with yerrorbars pt 7 ps 1.2 lc 1 title 'vm'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b3-v1-g1-2.png'
set datafile missing '?'
set title 'refill, Refill worker: allocations that failed'
set xlabel 'worker'
set ylabel 'allocations'
set grid ytics
set key below
set format y '%.3s%c'
set yrange [0:149555]
set xrange [-0.6:1.6]
set xtics ('bound' 0, 'unbound' 1)
set style fill solid 0.6 border -1
set boxwidth 0.8000
plot 'data/b3-v1-g1-2.dat' using ($1+0.0000):2:3:4:(0.8000) with boxerrorbars lc 1 title 'vm'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b3-v1-g1-3.png'
set datafile missing '?'
set title 'refill, Refill worker: allocations that succeeded on a retry'
set xlabel 'worker'
set ylabel 'allocations'
set grid ytics
set key below
set yrange [0:1.15]
set xrange [-0.6:1.6]
set xtics ('bound' 0, 'unbound' 1)
set style fill solid 0.6 border -1
set boxwidth 0.8000
plot 'data/b3-v1-g1-3.dat' using ($1+0.0000):2:3:4:(0.8000) with boxerrorbars lc 1 title 'vm'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b3-v1-g1-4.png'
set datafile missing '?'
set title 'refill, Refill worker: refill worker runs'
set xlabel 'worker'
set ylabel 'runs'
set grid ytics
set key below
set yrange [0:197.8]
set xrange [-0.6:1.6]
set xtics ('bound' 0, 'unbound' 1)
set style fill solid 0.6 border -1
set boxwidth 0.8000
plot 'data/b3-v1-g1-4.dat' using ($1+0.0000):2:3:4:(0.8000) with boxerrorbars lc 1 title 'vm'

reset
set terminal pngcairo size 960,520 noenhanced font ',10'
set output 'b3-v1-g1-5.png'
set datafile missing '?'
set title 'refill, Refill worker: time the reserve was empty'
set xlabel 'worker'
set ylabel 'ms'
set grid ytics
set key below
set yrange [0:358.968]
set xrange [-0.6:1.6]
set xtics ('bound' 0, 'unbound' 1)
set style fill solid 0.6 border -1
set boxwidth 0.8000
plot 'data/b3-v1-g1-5.dat' using ($1+0.0000):2:3:4:(0.8000) with boxerrorbars lc 1 title 'vm'
