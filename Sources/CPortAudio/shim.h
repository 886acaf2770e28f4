// PortAudio (Debian portaudio19-dev): the default input device, read as the chapter's microphone.
#include <portaudio.h>
