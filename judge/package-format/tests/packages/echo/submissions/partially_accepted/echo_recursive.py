# Partial: says the list back recursively, one call per number, so it crashes on long lists
# (Python's default recursion limit is 1000, n goes up to 2000): subtask 1 only.
def say_back(numbers, i):
    if i == len(numbers):
        return []
    return say_back(numbers, i + 1) + [numbers[i]]


input()
print(" ".join(say_back(input().split(), 0)))
