"""``python -m rlm_gym.cli``: the ``rlm-gym`` command."""

from __future__ import annotations

import sys

from rlm_gym.cli import main

sys.exit(main())
