class AppError(Exception):
    def __init__(self, msg, code=1):
        super().__init__(msg)
        self.code = code

def risky(x):
    try:
        if x < 0:
            raise AppError('negative', code=2)
        return 1 / x
    except ZeroDivisionError as e:
        raise ValueError('zero') from e
    except (TypeError, AppError):
        raise
    else:
        pass
    finally:
        print('done')
