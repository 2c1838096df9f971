"""``python -m gongzhu_score``: the same as the ``gongzhu-score`` command."""

from .cli import main

if __name__ == "__main__":
    main()
