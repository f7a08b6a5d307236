def read_pair():
    """The two integers of the input line."""
    a, b = map(int, input().split())
    return a, b
