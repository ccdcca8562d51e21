"""The Nexmark queries as DataFrame functions, under the name they had before the ``nexmark`` room
held them: the same functions and constants as :mod:`spark_random_strings.nexmark.queries`."""

from spark_random_strings.nexmark.queries import *  # noqa: F403
from spark_random_strings.nexmark.queries import __all__ as __all__
