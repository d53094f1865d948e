;;; emacs_lsp_driver.el --- drive lsp-mode through irilint's diagnostics and two quick fixes  -*- lexical-binding: t; -*-

;; Run by test_emacs_lsp.py in an interactive Emacs on a pseudo-terminal:
;;   emacs -nw -Q --eval <activate Debian's elpa> -l editors/emacs/irilint-lsp.el
;;         -l emacs_common.el -l this
;; M-x lsp starts the client (its project question answered with "i",
;; import the suggested root), Flymake shows the diagnostics, and
;; M-x lsp-execute-code-action asks for the action, answered by typing the
;; start of its title, TAB, RET; lsp-mode applies the edit and sends the change.

(require 'lsp-mode)
(require 'emacs_common)

(defun irilint-test--diags ()
  "lsp-mode's diagnostics for the test buffer, each with the region lsp-mode
maps it to (what Flymake underlines) and that region's Flymake text."
  (with-current-buffer irilint-test--buffer
    (let ((flymake (and (bound-and-true-p flymake-mode) (flymake-diagnostics))))
      (cl-loop for d in (gethash (lsp--fix-path-casing buffer-file-name) (lsp-diagnostics t))
               collect
               (let* ((region (lsp--range-to-region (lsp:diagnostic-range d)))
                      (beg (car region))
                      (end (cdr region))
                      (shown (cl-find-if (lambda (f) (and (= (flymake-diagnostic-beg f) beg)
                                                          (= (flymake-diagnostic-end f) end)))
                                         flymake)))
                 `((line . ,(1- (line-number-at-pos beg t)))
                   ;; Emacs columns: characters (code points) from the line start.
                   (col . ,(save-excursion (goto-char beg) (- beg (line-beginning-position))))
                   (end_col . ,(save-excursion (goto-char end) (- end (line-beginning-position))))
                   (beg . ,beg)
                   (end . ,end)
                   (text . ,(lsp:diagnostic-message d))
                   (in_flymake . ,(and shown t))
                   (code . ,(lsp:diagnostic-code? d))
                   (source . ,(lsp:diagnostic-source? d))
                   (lsp_range . ,(lsp:diagnostic-range d))))))))

;; Only counts (the update runs unchanged), so that a step waits for the
;; server's answer to an edit.
(add-hook 'lsp-diagnostics-updated-hook (lambda () (cl-incf irilint-test--publishes)))

(defun irilint-test--code-action (diag-code keys)
  "Point on DIAG-CODE's diagnostic, M-x lsp-execute-code-action, type KEYS at its prompt."
  (irilint-test-goto (cdr (assq 'beg (irilint-test--find diag-code))))
  (irilint-test-answer "Select code action" keys)
  (irilint-test-type "M-x lsp-execute-code-action RET"))

(defun irilint-test--workspace ()
  (with-current-buffer irilint-test--buffer
    (cl-find-if (lambda (w) (eq (lsp--client-server-id (lsp--workspace-client w)) 'irilint))
                (lsp-workspaces))))

;; A fresh user: no session file, no questions but the project root.
(setq lsp-session-file (expand-file-name "lsp-session" (getenv "HOME"))
      lsp-enable-suggest-server-download nil
      lsp-headerline-breadcrumb-enable nil)

(irilint-test-put 'lsp_mode_file (locate-library "lsp-mode"))
(irilint-test-open)
(irilint-test-put 'language_id (lsp-buffer-language))

(add-hook 'irilint-test--finish-hook
          (lambda ()
            (unless (irilint-test-get 'ok)
              (ignore-errors
                (irilint-test-put 'messages
                                  (with-current-buffer "*Messages*"
                                    (buffer-substring-no-properties
                                     (max (point-min) (- (point-max) 4000)) (point-max))))))
            (ignore-errors
              (with-current-buffer irilint-test--buffer
                (let ((lsp-keep-workspace-alive nil)) (lsp-workspace-shutdown (irilint-test--workspace)))))))

(irilint-test-run
 (append
  (list
   (list "start" #'always
         (lambda ()
           ;; "i": import the suggested project root (the folder with .git).
           (irilint-test-type "M-x lsp RET i")))
   (list "initialized" (lambda () (let ((w (irilint-test--workspace)))
                                    (and w (eq (lsp--workspace-status w) 'initialized))))
         (lambda ()
           (let ((w (irilint-test--workspace)))
             (irilint-test-put 'server_command
                               (process-command (lsp--workspace-cmd-proc w)))
             (irilint-test-put 'position_encoding
                               (lsp-get (lsp--workspace-server-capabilities w) :positionEncoding))
             (irilint-test-put 'root (lsp--workspace-root w))))))
  (irilint-test-two-fixes
   (lambda () (irilint-test-put 'flymake (and (bound-and-true-p flymake-mode) t))))))
;;; emacs_lsp_driver.el ends here
