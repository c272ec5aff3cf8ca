set ylabel 'normalised kernel time (first baseline = 1)'
set xlabel 'committed baseline'
set xtics rotate by 30 right font ',8'
set key outside right top
set grid ytics
set logscale y 2
set yrange [0.5:2]
set bmargin 6
set lmargin 16
plot 'trend.dat' using 1:3:xtic(2) with linespoints title 'bs99', 'trend.dat' using 1:4:xtic(2) with linespoints title 'dla', 'trend.dat' using 1:5:xtic(2) with linespoints title 'em', 'trend.dat' using 1:6:xtic(2) with linespoints title 'galerkin', 'trend.dat' using 1:7:xtic(2) with linespoints title 'ggl', 'trend.dat' using 1:8:xtic(2) with linespoints title 'linalg', 'trend.dat' using 1:9:xtic(2) with linespoints title 'man2020', 'trend.dat' using 1:10:xtic(2) with linespoints title 'nhprk', 'trend.dat' using 1:11:xtic(2) with linespoints title 'vprk'
