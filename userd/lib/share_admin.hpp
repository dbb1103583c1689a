// SPDX-License-Identifier: GPL-2.0-or-later
//
// Share administration on the configuration file (smbsrvctl share ...):
// validated edits that keep the file's formatting (conf_edit.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace smbsrv {

struct ShareOption {
	std::string key;
	std::string value;
};

// "key = value" as given to -o.  Throws std::invalid_argument.
ShareOption parse_share_option(std::string_view opt);

enum class ShareOp { add, update, del };

struct ShareEdit {
	std::string text;		   // the new file; empty when errors
	std::vector<std::string> errors;   // nothing may be written
	std::vector<std::string> warnings; // new warnings the edit brings
};

// Apply one edit to the text of `file`.  The result is checked with the
// configuration layer: an edit that would add an error is refused.  In
// `update`, an option with an empty value removes the parameter.
ShareEdit edit_share(std::string_view text, const std::string &file, ShareOp op,
		     std::string_view name, const std::vector<ShareOption> &opts);

} // namespace smbsrv
