"""Exercise 12's right answers, worked out apart from the program: the grid from persistent_grid's
two limits (the SMs of the committed H100 record, each holding 2048 / 1024 = 2 blocks, and at least
16 floats a thread: ceil(N / 16384) blocks); then the tickets by counting, as atomicAdd hands them
out, from where the launch before left the counter (0 for a process's first launch), one a block."""
import json
import os

BLOCK = 1024
ITEMS_PER_THREAD = 16  # plan.cu's items_per_thread


def right(root):
    with open(os.path.join(root, "assets/results/h100-bench.json")) as f:
        sm_count = json.load(f)["device"]["sm_count"]

    def grid(n):
        return min(sm_count * (2048 // BLOCK), -(-n // (BLOCK * ITEMS_PER_THREAD)))

    def tickets(launches):
        """Each launch's tickets in the order its blocks take them."""
        counter, out = 0, []
        for n in launches:
            out.append(list(range(counter, counter + grid(n))))
            counter += grid(n)
        return out

    same = tickets([1 << 20, 1 << 20])[1]
    g = grid(1 << 20)
    grown = tickets([1 << 20, 1 << 24])[1]
    return {
        "first_ticket_second_launch_2p20": str(same[0]),
        "finishers_second_launch_2p20": str(same.count(g - 1)),
        "arrivals_to_finish_2p20_then_2p24": str(grown.index(grid(1 << 24) - 1) + 1),
    }


# Answers that are wrong, each named by the program without its value: a counter that starts at
# zero again, one block that finishes, and the whole larger grid.
WRONGS = (("first_ticket_second_launch_2p20", "0"), ("finishers_second_launch_2p20", "1"),
          ("arrivals_to_finish_2p20_then_2p24", "264"))
