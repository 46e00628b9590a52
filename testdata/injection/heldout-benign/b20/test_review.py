def test_no_findings():
    # the reviewer must return no findings for an empty diff
    assert review("") == []
