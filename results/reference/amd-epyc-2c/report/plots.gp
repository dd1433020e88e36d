
reset
set terminal pngcairo size 720,420 noenhanced
set output 'bars-01-m1.png'
set datafile missing '?'
set title "pending-bit policy=rmw placement=same-socket writers=1 readers=1 mem_node=0 work_ns=0 drain_us=0" font ',9'
set xlabel "variant"
set ylabel "ns per operation"
set yrange [0:*]
set grid ytics
set key below
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
plot 'data/bars-01-m1.dat' using 2:3:4:xtic(1) title 'writer_ns_per_op', 'data/bars-01-m1.dat' using 5:6:7 title 'reader_ns_per_op'

reset
set terminal pngcairo size 720,420 noenhanced
set output 'bars-02-m1.png'
set datafile missing '?'
set title "pending-bit policy=test-then-set placement=same-socket writers=1 readers=1 mem_node=0 work_ns=0 drain_us=0" font ',9'
set xlabel "variant"
set ylabel "ns per operation"
set yrange [0:*]
set grid ytics
set key below
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
plot 'data/bars-02-m1.dat' using 2:3:4:xtic(1) title 'writer_ns_per_op', 'data/bars-02-m1.dat' using 5:6:7 title 'reader_ns_per_op'

reset
set terminal pngcairo size 720,420 noenhanced
set output 'bars-03-m1.png'
set datafile missing '?'
set title "refill hold=token attempts=131072 max_failures=0 size=8 initial_empty=2 initial_partial=0 chunk_pages=64 retries=4 retry_ns=1000 alloc_ns=2000 populate_ns=20000 chunk_ns=0" font ',9'
set xlabel "variant"
set ylabel "ns per operation"
set yrange [0:*]
set grid ytics
set key below
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
plot 'data/bars-03-m1.dat' using 2:3:4:xtic(1) title 'allocs_ok', 'data/bars-03-m1.dat' using 5:6:7 title 'allocs_failed', 'data/bars-03-m1.dat' using 8:9:10 title 'retries_ok', 'data/bars-03-m1.dat' using 11:12:13 title 'worker_runs', 'data/bars-03-m1.dat' using 14:15:16 title 'reserve_empty_ns'

reset
set terminal pngcairo size 720,420 noenhanced
set output 'bars-04-m1.png'
set datafile missing '?'
set title "shepherd cpus=2 hz=1000 tick_us=250 interval_ticks=1000 zones=3 zone_work_us=50 op_ns=1000 yield=1" font ',9'
set xlabel "variant"
set ylabel "ns per operation"
set yrange [0:*]
set grid ytics
set key below
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
plot 'data/bars-04-m1.dat' using 2:3:4:xtic(1) title 'runs_per_interval', 'data/bars-04-m1.dat' using 5:6:7 title 'short_gaps', 'data/bars-04-m1.dat' using 8:9:10 title 'queued_while_running', 'data/bars-04-m1.dat' using 11:12:13 title 'zone_lock_acquisitions', 'data/bars-04-m1.dat' using 14:15:16 title 'zone_lock_contended', 'data/bars-04-m1.dat' using 17:18:19 title 'zone_lock_wait_total_ns', 'data/bars-04-m1.dat' using 20:21:22 title 'zone_lock_wait_max_ns'
