try:
    {}["k"]
except KeyError:
    x = undefined_thing
