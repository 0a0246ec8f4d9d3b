// The game's server worker: it imports the package (for its own use, here its version) and the
// package's worker module, which installs the message handlers in this worker.
import { VoxnavError } from 'voxnav';
import 'voxnav/worker';

self.__voxnavErrorName = new VoxnavError('Ok', '').name;
