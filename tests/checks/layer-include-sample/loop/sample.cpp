#include "sample.h"

#include <tools/bashtool.h>
