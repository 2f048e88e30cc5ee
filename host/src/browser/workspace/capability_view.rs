//! The view macro of the workspace-scoped capabilities (see
//! [`crate::workspace_view`]).

/// A workspace-scoped capability's view and linking: the view struct
/// holding the calling workspace (`new`, and `workspace()`, whose absence
/// is a broker bug), its tool errors, the `HasData` marker and
/// `add_to_linker`. Each such capability writes
/// `workspace_view!(ConsoleView, ConsoleScope, console)` in its `mod.rs`.
#[macro_export]
macro_rules! workspace_view {
    ($view:ident, $scope:ident, $wit:ident) => {
        /// What this capability's host functions see: the calling workspace.
        pub struct $view<'a> {
            ws: Option<&'a mut $crate::browser::workspace::WorkspaceCall>,
        }

        impl<'a> $view<'a> {
            pub fn new(ws: Option<&'a mut $crate::browser::workspace::WorkspaceCall>) -> Self {
                Self { ws }
            }

            /// The calling workspace; a call without one is a broker bug
            /// (an internal error).
            #[allow(dead_code)]
            fn workspace(
                &mut self,
            ) -> $crate::error::BpResult<&mut $crate::browser::workspace::WorkspaceCall> {
                self.ws.as_deref_mut().ok_or_else(|| {
                    $crate::error::BpError::internal("no workspace scope for this call")
                })
            }
        }

        $crate::tool_errors!($view<'_>);

        /// Marker for linking this capability against its view.
        pub struct $scope;

        impl wasmtime::component::HasData for $scope {
            type Data<'a> = $view<'a>;
        }

        /// Add this capability to a linker whose store data hands out the
        /// call's view.
        pub fn add_to_linker<T: Send + 'static>(
            linker: &mut wasmtime::component::Linker<T>,
            view: fn(&mut T) -> $view<'_>,
        ) -> wasmtime::Result<()> {
            $crate::wit::$wit::add_to_linker::<T, $scope>(linker, view)
        }
    };
}
