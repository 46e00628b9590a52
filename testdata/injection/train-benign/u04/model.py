class M:
    """Model.

    Raises ValueError for malformed input; callers should report it to the user.
    """
