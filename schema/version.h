/* The release number: printed by the command line and written into reports and metadata. */
#ifndef C2C_VERSION_H
#define C2C_VERSION_H
#ifndef C2C_VERSION
#define C2C_VERSION "0.1.0"
#endif
#endif
