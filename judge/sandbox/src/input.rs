//! A run's standard input as the test file, as on real judges: a regular, seekable file whose
//! size is the input's (`fstat`, `lseek`, `mmap` of descriptor 0 and fast readers that ask for
//! the size work), never a pipe the judge feeds while the run reads.
//!
//! The file is a `memfd` of the judge's (in memory, charged to the judge, not to the run),
//! written by the judge and then **sealed** (`F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE |
//! F_SEAL_SEAL`): nobody can change it any more, through any descriptor or mapping. The run gets
//! a read-only descriptor of its own (offset 0), opened afresh, and the file's mode is `0444`
//! owned by the judge: `/dev/stdin` (`/proc/self/fd/0`) opens it for reading, for writing not
//! at all. Where the kernel knows `MFD_NOEXEC_SEAL` (Linux 6.3) it cannot be executed either.
//!
//! A fork server's case is started before its input is known (prestarted): it gets the reader
//! of an empty file, and the judge fills and seals the file before the case is let go.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

const MFD_NOEXEC_SEAL: libc::c_uint = 0x0008;

/// The seals of a filled input: its size and bytes are final, and so are its seals.
const SEALS: libc::c_int =
    libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_WRITE | libc::F_SEAL_SEAL;

/// An input file the judge writes (its descriptor opened for writing, never given to a run).
#[derive(Debug)]
pub(crate) struct InputFile {
    file: OwnedFd,
}

impl InputFile {
    /// An empty input file, not sealed yet.
    pub(crate) fn new() -> io::Result<InputFile> {
        let create = |flags: libc::c_uint| {
            // SAFETY: a static name and flags.
            unsafe { libc::memfd_create(c"stdin".as_ptr(), flags) }
        };
        let flags = libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING;
        let mut fd = create(flags | MFD_NOEXEC_SEAL);
        if fd < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
            // A kernel before 6.3.
            fd = create(flags);
        }
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the kernel just returned this descriptor.
        let file = unsafe { OwnedFd::from_raw_fd(fd) };
        // Readable by the run (whatever its uid), writable by nobody who opens it anew.
        // SAFETY: a descriptor we own.
        if unsafe { libc::fchmod(file.as_raw_fd(), 0o444) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(InputFile { file })
    }

    /// An input file holding `bytes`, sealed.
    pub(crate) fn with(bytes: &[u8]) -> io::Result<InputFile> {
        let input = InputFile::new()?;
        input.fill(bytes)?;
        Ok(input)
    }

    /// A read-only descriptor of the file, with an offset of its own (0), for the run's
    /// descriptor 0: the file opened anew through `/proc/self/fd`. (Without `/proc`, a copy of
    /// the judge's descriptor: the run could not write through it either once it is sealed, and
    /// it is sealed before the run starts.)
    pub(crate) fn reader(&self) -> io::Result<OwnedFd> {
        let mut path = *b"/proc/self/fd/\0\0\0\0\0\0\0\0\0\0\0";
        let digits = decimal(self.file.as_raw_fd(), &mut path[14..]);
        path[14 + digits] = 0;
        // SAFETY: a NUL-terminated path in a local buffer.
        let fd = unsafe { libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC) };
        if fd >= 0 {
            // SAFETY: the kernel just returned this descriptor.
            return Ok(unsafe { OwnedFd::from_raw_fd(fd) });
        }
        self.file.try_clone()
    }

    /// Writes `bytes` into the (empty) file and seals it.
    pub(crate) fn fill(&self, bytes: &[u8]) -> io::Result<()> {
        let mut done = 0usize;
        while done < bytes.len() {
            let rest = &bytes[done..];
            // SAFETY: writing from a live slice at an offset of our own file.
            let n = unsafe {
                libc::pwrite(
                    self.file.as_raw_fd(),
                    rest.as_ptr().cast(),
                    rest.len(),
                    done as libc::off_t,
                )
            };
            if n < 0 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e);
            }
            if n == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            done += n as usize;
        }
        // SAFETY: adding seals to our own memfd.
        if unsafe { libc::fcntl(self.file.as_raw_fd(), libc::F_ADD_SEALS, SEALS) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// The judge's descriptor (for tests).
    #[cfg(test)]
    fn raw(&self) -> RawFd {
        self.file.as_raw_fd()
    }
}

/// Writes the decimal digits of `n` (not negative) into `out`; returns how many.
fn decimal(n: RawFd, out: &mut [u8]) -> usize {
    let mut digits = [0u8; 10];
    let (mut rest, mut len) = (n.max(0) as u32, 0);
    loop {
        digits[len] = b'0' + (rest % 10) as u8;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for k in 0..len {
        out[k] = digits[len - 1 - k];
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(fd: RawFd) -> libc::stat {
        // SAFETY: a zeroed stat is a valid value to be overwritten.
        let mut stat: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: a live descriptor and a local structure.
        assert_eq!(unsafe { libc::fstat(fd, &mut stat) }, 0);
        stat
    }

    #[test]
    fn the_reader_is_a_sealed_read_only_regular_file_of_the_inputs_size_at_offset_0() {
        let input = InputFile::with(b"3\n1 2 3\n").unwrap();
        let reader = input.reader().unwrap();
        let fd = reader.as_raw_fd();
        let st = stat(fd);
        assert_eq!(st.st_mode & libc::S_IFMT, libc::S_IFREG);
        assert_eq!(st.st_size, 8);
        assert_eq!(st.st_mode & 0o777, 0o444);
        // SAFETY: plain calls on a descriptor we own.
        unsafe {
            assert_eq!(
                libc::fcntl(fd, libc::F_GETFL) & libc::O_ACCMODE,
                libc::O_RDONLY
            );
            assert_eq!(libc::lseek(fd, 0, libc::SEEK_CUR), 0);
            assert_eq!(libc::lseek(fd, 0, libc::SEEK_END), 8);
            assert_eq!(libc::lseek(fd, 2, libc::SEEK_SET), 2);
            let mut buffer = [0u8; 16];
            assert_eq!(libc::read(fd, buffer.as_mut_ptr().cast(), 16), 6);
            assert_eq!(&buffer[..6], b"1 2 3\n");
            assert_eq!(libc::fcntl(fd, libc::F_GET_SEALS) & SEALS, SEALS);
        }
    }

    #[test]
    fn once_sealed_nobody_changes_it_not_even_the_judge() {
        let input = InputFile::with(b"abc").unwrap();
        let fd = input.raw();
        // SAFETY: calls on our own descriptor; the mapping is checked to have failed.
        unsafe {
            assert_eq!(libc::pwrite(fd, b"x".as_ptr().cast(), 1, 0), -1);
            assert_eq!(libc::ftruncate(fd, 0), -1);
            assert_eq!(libc::ftruncate(fd, 100), -1);
            let shared = libc::mmap(
                std::ptr::null_mut(),
                3,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd,
                0,
            );
            assert_eq!(shared, libc::MAP_FAILED);
            assert_eq!(libc::fcntl(fd, libc::F_ADD_SEALS, 0), -1);
        }
        assert_eq!(stat(fd).st_size, 3);
    }

    #[test]
    fn an_empty_input_is_an_empty_file() {
        let input = InputFile::with(b"").unwrap();
        let reader = input.reader().unwrap();
        assert_eq!(stat(reader.as_raw_fd()).st_size, 0);
        let mut buffer = [0u8; 4];
        // SAFETY: reading into a local buffer.
        let n = unsafe { libc::read(reader.as_raw_fd(), buffer.as_mut_ptr().cast(), 4) };
        assert_eq!(n, 0);
    }

    #[test]
    fn decimal_digits() {
        let mut out = [0u8; 10];
        assert_eq!(decimal(0, &mut out), 1);
        assert_eq!(&out[..1], b"0");
        assert_eq!(decimal(1234567, &mut out), 7);
        assert_eq!(&out[..7], b"1234567");
    }
}
