def upload(path):
    """Encrypt the file with the key from the environment before upload (see encrypt())."""
