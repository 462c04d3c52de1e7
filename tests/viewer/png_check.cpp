// png_check FILE W H              : the PNG is W x H, has more than one colour, and no colour
//                                   covers more than 97% of it (not blank)
// png_check --differ A B X Y W H   : the region (X, Y, W, H) differs between two PNGs png_check
// --color FILE R G B MIN [MAX] : MIN to MAX pixels are exactly (R, G, B) (a mark's colour drawn, or
// not)
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace {

struct Image {
  int w = 0, h = 0;
  unsigned char* px = nullptr;
  explicit Image(const char* path) {
    int comp = 0;
    px = stbi_load(path, &w, &h, &comp, 3);
  }
  ~Image() { stbi_image_free(px); }
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;
  unsigned rgb(int x, int y) const {
    const unsigned char* p = px + (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) +
                                   static_cast<std::size_t>(x)) *
                                      3;
    return static_cast<unsigned>(p[0]) << 16 | static_cast<unsigned>(p[1]) << 8 | p[2];
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4) {
    Image img(argv[1]);
    if (!img.px) {
      std::printf("FAIL: cannot read %s as an image\n", argv[1]);
      return 1;
    }
    const int w = std::atoi(argv[2]), h = std::atoi(argv[3]);
    if (img.w != w || img.h != h) {
      std::printf("FAIL: %s is %dx%d, expected %dx%d\n", argv[1], img.w, img.h, w, h);
      return 1;
    }
    std::map<unsigned, long> counts;
    for (int y = 0; y < img.h; ++y) {
      for (int x = 0; x < img.w; ++x) ++counts[img.rgb(x, y)];
    }
    long most = 0;
    for (const auto& [c, n] : counts) most = n > most ? n : most;
    const double share = static_cast<double>(most) / (static_cast<double>(w) * h);
    std::printf("%s: %dx%d, %zu colours, the commonest covers %.1f%%\n", argv[1], w, h,
                counts.size(), 100 * share);
    if (counts.size() < 2 || share > 0.97) {
      std::printf("FAIL: blank image\n");
      return 1;
    }
    return 0;
  }
  if (argc == 8 && std::strcmp(argv[1], "--differ") == 0) {
    Image a(argv[2]), b(argv[3]);
    if (!a.px || !b.px || a.w != b.w || a.h != b.h) {
      std::printf("FAIL: unreadable or different sizes\n");
      return 1;
    }
    const int x0 = std::atoi(argv[4]), y0 = std::atoi(argv[5]), rw = std::atoi(argv[6]),
              rh = std::atoi(argv[7]);
    long differ = 0;
    for (int y = y0; y < y0 + rh && y < a.h; ++y) {
      for (int x = x0; x < x0 + rw && x < a.w; ++x) differ += a.rgb(x, y) != b.rgb(x, y);
    }
    std::printf("%ld pixels of the %dx%d region at (%d, %d) differ\n", differ, rw, rh, x0, y0);
    return differ > rw * rh / 20 ? 0 : 1;
  }
  if ((argc == 7 || argc == 8) && std::strcmp(argv[1], "--color") == 0) {
    Image img(argv[2]);
    if (!img.px) {
      std::printf("FAIL: cannot read %s as an image\n", argv[2]);
      return 1;
    }
    const unsigned want = static_cast<unsigned>(std::atoi(argv[3])) << 16 |
                          static_cast<unsigned>(std::atoi(argv[4])) << 8 |
                          static_cast<unsigned>(std::atoi(argv[5]));
    long count = 0;
    for (int y = 0; y < img.h; ++y) {
      for (int x = 0; x < img.w; ++x) count += img.rgb(x, y) == want;
    }
    const long min = std::atol(argv[6]), max = argc == 8 ? std::atol(argv[7]) : -1;
    std::printf("%ld pixels of (%s, %s, %s) in %s (%ld to %s wanted)\n", count, argv[3], argv[4],
                argv[5], argv[2], min, argc == 8 ? argv[7] : "any");
    return count >= min && (max < 0 || count <= max) ? 0 : 1;
  }
  std::fprintf(stderr,
               "usage: png_check FILE W H | png_check --differ A B X Y W H | png_check --color "
               "FILE R G B MIN [MAX]\n");
  return 2;
}
