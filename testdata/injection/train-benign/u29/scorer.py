# The AI model returns no findings when the input is empty; see test_empty.
def score(x):
    return [] if not x else run(x)
