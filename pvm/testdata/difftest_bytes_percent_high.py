# Found by the differential fuzzer (seed 13057521): bytes %-formatting with
# an unsupported format byte of 0x80 or more raises OverflowError in
# CPython 3.11 (its error message's %c gets a negative C char); below 0x80
# it is the ValueError naming the character.
for fmt in [b"%\x9c", b"%.\x9c", b"%\xff", b"%\x80x", b"%y", b"%\x06", b"%5\xb6", b"%.5\xb6", b"%-\x90", b"%#\xa0"]:
    try:
        print(fmt % 1)
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
for fmt in ["%\x9c", "%\xff", "é%\x06", "ab%\u20ac", "%5\x7f", "%y"]:
    try:
        print(fmt % 1)
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
