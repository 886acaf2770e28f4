#ifndef WAVES_EASY_FONT_H
#define WAVES_EASY_FONT_H
// A two-function face for stb_easy_font (Debian libstb-dev): text to quads.
// Each quad is 4 vertices of 16 bytes: x, y, z as floats, then RGBA8.

/// Writes the quads of `text` at (x, y), y down, into `buffer` (`bytes` long);
/// returns how many quads were written.
int waves_text_quads(float x, float y, const char *text, void *buffer, int bytes);
/// Width of `text` in font units (one unit is one pixel at scale 1).
int waves_text_width(const char *text);
/// Height of `text` in font units.
int waves_text_height(const char *text);

#endif
