/* The decode floor for peaks (docs/benchmark.md, "waves audiowaveform against
 * audiowaveform"): every frame of a track read through libsndfile as 16-bit
 * integers, as audiowaveform and Waves read a PCM track, and nothing else.
 * Built and run by Scripts/audiowaveform-bench.sh. */
#include <sndfile.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: sndfile-read-floor TRACK\n"); return 2; }
    SF_INFO info = {0};
    SNDFILE *file = sf_open(argv[1], SFM_READ, &info);
    if (!file) { fprintf(stderr, "sndfile-read-floor: %s\n", sf_strerror(NULL)); return 1; }
    static short buffer[65536];
    long long frames = 0, got;
    while ((got = sf_readf_short(file, buffer, 65536 / info.channels)) > 0) frames += got;
    sf_close(file);
    printf("%lld frames\n", frames);
    return 0;
}
