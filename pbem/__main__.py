"""``python -m pbem``."""

from pbem.cli import main

if __name__ == "__main__":
    main()
