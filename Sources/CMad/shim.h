// libmad (Debian libmad0-dev): the MPEG audio decoder audiowaveform reads
// MP3 with, so waves reads an MP3's samples as it does.
#include <mad.h>
