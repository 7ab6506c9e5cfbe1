#pragma once
#include "../settings/sample.h"
