raise
raise E
raise E('msg')
raise E from None
raise E from cause
try:
    pass
except Exception as exc:
    raise RuntimeError('x') from exc
