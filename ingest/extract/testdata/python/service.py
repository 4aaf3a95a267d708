"""User service: accounts, caching and notifications."""
import os.path
import numpy as np
from .models import User, Account as Acc
from ..util import helpers
from typing import Optional
from .events import *

MAX_RETRIES = 3
logger = make_logger(__name__)


def retry(times):
    def wrap(fn):
        return fn
    return wrap


@dataclass
class Service(BaseService, metaclass=ABCMeta):
    """Coordinates users and accounts."""

    repo: Repository

    def __init__(self, db: Database, cache=None):
        self.db = db
        self.cache = Cache(size=10)
        self._hooks = []

    @property
    def name(self) -> str:
        return self.db.query("name")

    @retry(times=MAX_RETRIES)
    async def run(self, user: User) -> Optional["Result"]:
        acc = Acc(user)
        acc.save()
        self.cache.get(user.id)
        self._notify(acc)
        np.linalg.norm(user.vector)
        path = os.path.join("a", "b")
        helpers.clean(path)
        super().run(user)

        def inner():
            return compute(acc)

        return inner()

    @staticmethod
    def _notify(acc):
        logger.info("saved %s", acc)


class TestService(unittest.TestCase):
    def setUp(self):
        self.svc = Service(None)

    def test_run(self):
        self.svc.run(User())
        self.assertTrue(True)


def test_module_level():
    s = Service(FakeDb())
    assert s.name


if __name__ == "__main__":
    main()
