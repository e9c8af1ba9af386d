"""pbem: check, picture and archive board wargame turns played by email."""

__version__ = "0.1.0"
