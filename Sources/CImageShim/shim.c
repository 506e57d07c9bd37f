#include "imglab_shim.h"
