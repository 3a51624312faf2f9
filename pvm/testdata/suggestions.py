class Box:
    def __init__(self):
        self.width = 1
        self.height = 2
b = Box()
for name in ["widht", "heigth", "depth"]:
    try:
        getattr(b, name)
    except AttributeError as e:
        print("AttributeError:", e)
try:
    lenght = 3
    print(lengt)
except NameError as e:
    print("NameError:", e)
