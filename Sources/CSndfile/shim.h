// libsndfile (Debian libsndfile1-dev): WAV, FLAC, Ogg/Vorbis, Opus and MP3 read and written.
#include <sndfile.h>
