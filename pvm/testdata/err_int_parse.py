for s in ["10", "0x10", "ten"]:
    print(int(s, 0))
