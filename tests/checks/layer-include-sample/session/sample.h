#pragma once
#include "../permissions/permissionpolicy.h"
