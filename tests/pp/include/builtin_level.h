level_in_header = __INCLUDE_LEVEL__ __FILE__ __BASE_FILE__ __FILE_NAME__ __COUNTER__
#line 7 "renamed/name.h"
renamed = __FILE__ __BASE_FILE__ __FILE_NAME__ __LINE__
