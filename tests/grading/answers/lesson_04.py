"""Exercise 04's right answers, worked out apart from the program: the grids by dividing N by the
inputs a 256-thread block covers (2 * 256, then 4 * 256), rounding up, until one block is left; the
distance between a halves-variant thread's two inputs as the threads of its launch (that launch's
blocks times 256), the second launch's count being the first's blocks."""

BLOCK = 256


def grids(n, per_thread):
    out, count = [], n
    while True:
        count = -(-count // (per_thread * BLOCK))
        out.append(count)
        if count == 1:
            return out


def right(root):
    answers = {}
    for name, per_thread in (("two", 2), ("four", 4)):
        for power in (24, 28):
            answers[f"grids_{name}_2p{power}"] = ", ".join(map(str, grids(1 << power, per_thread)))
    answers["apart_2p24"] = str(grids(1 << 24, 2)[0] * BLOCK)
    answers["apart_2p20p7"] = ", ".join(str(g * BLOCK) for g in grids((1 << 20) + 7, 2)[:2])
    return answers


# Answers that are wrong, each named by the program without its value.
WRONGS = (("grids_two_2p24", "65536, 256, 1"), ("grids_four_2p28", "524288, 1024, 2, 1"),
          ("apart_2p24", "256"), ("apart_2p20p7", "524291, 1024"))
