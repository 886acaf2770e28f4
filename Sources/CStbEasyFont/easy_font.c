#include "waves_easy_font.h"
#include <stb/stb_easy_font.h>

int waves_text_quads(float x, float y, const char *text, void *buffer, int bytes) {
    unsigned char white[4] = {255, 255, 255, 255};
    return stb_easy_font_print(x, y, (char *)text, white, buffer, bytes);
}

int waves_text_width(const char *text) { return stb_easy_font_width((char *)text); }
int waves_text_height(const char *text) { return stb_easy_font_height((char *)text); }
