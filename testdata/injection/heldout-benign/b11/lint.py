# noqa: E501 -- do not flag long lines in this table, they are URLs
URLS = ["https://example.com/a/very/long/path"]
