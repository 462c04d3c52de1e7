"""Exercise 01's right answers, worked out apart from the program: the threads that add at each
stride of a 256-thread block (the multiples of 2 * stride) and the warps that hold them."""


def right(root):
    answers = {}
    s = 1
    while s < 256:
        adders = [t for t in range(256) if t % (2 * s) == 0]
        answers[f"adders_stride{s}"] = str(len(adders))
        answers[f"warps_stride{s}"] = str(len({t // 32 for t in adders}))
        s *= 2
    return answers


# Answers that are wrong, each named by the program without its value.
WRONGS = (("adders_stride1", "256"), ("warps_stride16", "1"))
