# Adds as doubles, then rounds: exact below 2^53, wrong for some large numbers.
# mixed/ is no folder of the format; this line says what it gets (DOMjudge's convention):
# @EXPECTED_RESULTS@: WRONG_ANSWER
a, b = map(float, input().split())
print(int(a + b))
