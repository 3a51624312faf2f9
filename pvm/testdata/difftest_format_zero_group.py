# Found by the differential fuzzer (seed 10079522): '0' padding between the
# sign and the digits, whether from the 0 flag or an explicit "0=" fill and
# alignment, is grouped like the digits ("=07_X" gives 00_0003).
for spec in ["=07_X", "07_X", "=07_x", "0=7_X", "0=07_X", "0>7_X", "0<7_X", "x=07_X", "=7_X",
             "010_b", "08_o", "=09_d", "09,d", "=10_x", "#010_x", "+09_X", "_X", "012_x",
             "=+09_d", "= 09_d", "0=10,d", "^07_X", "<07_X"]:
    print(spec, repr(format(3, spec)), repr(format(-255, spec)), repr(format(123456789, spec)))
for spec in ["=010_.2f", "010,.1f", "0=12,.3f", "=012_.1e", "011,g"]:
    print(spec, repr(format(3.5, spec)), repr(format(-1234.5678, spec)))
