def ok(a):
    return helper(a)

def broken(:
    pass

class Half(Base
    def m(self):
        self.x()
