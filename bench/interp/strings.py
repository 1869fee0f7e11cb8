# Interpreter overhead: building strings. 10**6 short appends with +=, then
# 10**5 f-strings joined into one string. Valid as gpy and as Python 3.
parts = []
for i in range(10**5):
    line = ""
    for d in range(10):
        line += str((i + d) % 10)
    parts.append(f"{i}:{line}")
text = "\n".join(parts)
print(len(text))
print(parts[12345])
print(parts[len(parts) - 1])
