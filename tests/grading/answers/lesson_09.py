"""Exercise 09's right answers, worked out apart from the program, from the kernel's shape: a
warp's shuffle loop makes 5 passes of 32 lanes, so 160 values; stage 1 runs in every warp, stage 2
in warp 0 alone (own two stages) or in every warp (everyone), and a block of one warp has no stage
2 and no barrier (`if constexpr (Block > 32)`); the warps that read the totals back are those that
run stage 2."""


def right(root):
    answers = {}
    for b in (32, 64, 256):
        warps = b // 32
        stage2 = 0 if b == 32 else 1
        answers[f"shuffles_own_b{b}"] = str(160 * (warps + stage2))
        if b > 32:
            answers[f"shuffles_everyone_b{b}"] = str(160 * 2 * warps)
    answers["readers_own_b256"] = "1"
    answers["readers_everyone_b256"] = str(256 // 32)
    answers["barriers_b32"] = "0"
    return answers


# Answers that are wrong, each named by the program without its value.
WRONGS = (("shuffles_own_b256", "1280"), ("shuffles_everyone_b64", "480"),
          ("readers_everyone_b256", "1"), ("barriers_b32", "1"))
