# __init_subclass__ and class keyword arguments.


class Plugin:
    plugins = []

    def __init_subclass__(cls, /, name=None, priority=0, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.plugin_name = name or cls.__name__.lower()
        cls.priority = priority
        Plugin.plugins.append(cls)


class Auth(Plugin, name="auth", priority=10):
    pass


class Logging(Plugin):
    pass


class Metrics(Logging, priority=5):
    pass


print([(p.plugin_name, p.priority) for p in Plugin.plugins])
print(sorted(Plugin.plugins, key=lambda p: -p.priority)[0].__name__)
try:
    class Bad(Plugin, colour="red"):
        pass
except TypeError as e:
    print("TypeError", e)
try:
    class Bad2(other=1):
        pass
except TypeError as e:
    print("TypeError", e)


class Message:
    registry = {}

    def __init_subclass__(cls, kind, **kw):
        super().__init_subclass__(**kw)
        cls.kind = kind
        Message.registry[kind] = cls


class Ping(Message, kind="ping"):
    pass


class Pong(Message, kind="pong"):
    def reply(self):
        return Ping()


print(sorted(Message.registry), Message.registry["pong"]().reply().kind)
try:
    class Missing(Message):
        pass
except TypeError as e:
    print("TypeError", e)
