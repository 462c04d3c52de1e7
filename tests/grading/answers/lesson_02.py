"""Exercise 02's right answers, worked out apart from the program: the worst bank conflict at each
stride from the addresses lesson 02's lanes touch (lane t: words 2*s*t and 2*s*t + s while
2*s*t < 256)."""


def right(root):
    answers = {}
    s = 1
    while s < 256:
        worst = 1
        for warp in range(256 // 32):
            lanes = [t for t in range(32 * warp, 32 * warp + 32) if 2 * s * t < 256]
            for offset in (0, s):  # partial[index] (read and written), partial[index + stride]
                banks = {}
                for t in lanes:
                    banks.setdefault((2 * s * t + offset) % 32, set()).add(2 * s * t + offset)
                worst = max([worst] + [len(v) for v in banks.values()])
        answers[f"conflict_stride{s}"] = str(worst)
        s *= 2
    return answers


WRONGS = (("conflict_stride1", "1"), ("conflict_stride8", "16"))
